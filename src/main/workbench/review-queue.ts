/**
 * The app's review queue is the review engine's (review/queue.ts), the same one the CLI's `proposals`, `accept`,
 * `reject` and `unreject` use: plan proposals and the agents' pending ones, listed together, each decision routed to
 * the back end that owns it.
 */
export { acceptQueued, applyEditsTo, countWaiting, mergeQueues, pendingStatus, proposalHome, proposalsToKeep, readReviewQueue, rejectQueued, saveEdits, unrejectQueued, type ProposalHome } from '../review/queue'
