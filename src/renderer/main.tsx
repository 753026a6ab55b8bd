import { createRoot } from 'react-dom/client'
import { App } from './App'
import { pickApi } from './api/pick-api'
import './styles/app.css'

const container = document.getElementById('root')
if (!container) throw new Error('#root missing from index.html')
createRoot(container).render(<App api={pickApi()} />)
