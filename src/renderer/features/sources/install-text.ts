/** Chinese for the reasons `install` gives for a skill it did not install (pure; English passes through). */
import { translateServerMessage } from '../../i18n/server-messages'

const RULES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^a skill named (.+) already exists in the library \((.+)\): not overwritten$/s, (m) => `技能库中已有名为 ${m[1]} 的技能（${m[2]}）：不会覆盖`],
  [/^already installed from (.+) \(commit (\w+)\) at (.+): skillbench update brings its upstream changes$/s, (m) => `已从 ${m[1]} 安装（提交 ${m[2]}），位于 ${m[3]}：用“检查更新”获取上游的修改`],
  [/^(.+) already exists in the library folder \(not a skill Skillbench can read\): not overwritten$/s, (m) => `技能库文件夹中已有 ${m[1]}（不是 Skillbench 能读取的技能）：不会覆盖`],
  [/^no skill named (.+) under (.+) of (.+)$/s, (m) => `${m[3]} 的 ${m[2]} 下没有名为 ${m[1]} 的技能`],
  [/^(.+?): SKILL\.md fails validation: (.+)$/s, (m) => `${m[1]}：SKILL.md 未通过校验：${m[2]}`],
  [/^(.+?): SKILL\.md does not parse: (.+)$/s, (m) => `${m[1]}：无法解析 SKILL.md：${translateServerMessage(m[2]!, 'zh')}`],
  [/^(.+?): symbolic link (.+) points outside the repository \(→ (.+)\): refused$/s, (m) => `${m[1]}：符号链接 ${m[2]} 指向仓库之外（→ ${m[3]}）：已拒绝`],
  [/^(.+?): another skill of this repository \((.+)\) has the same name$/s, (m) => `${m[1]}：仓库中另一个技能（${m[2]}）同名`]
]

export function installReason(reason: string, lang: 'en' | 'zh'): string {
  if (lang === 'en') return reason
  for (const [re, to] of RULES) {
    const m = re.exec(reason)
    if (m) return to(m)
  }
  return translateServerMessage(reason, lang)
}
