export { sessionsSearchHandler, type SessionsSearchHandler, type SearchableSessions } from './handler.js';
export { TranscriptSearchIndex, type SearchSource, type TranscriptHit } from './transcript-search-index.js';
export { searchableMessage, type SearchableMessage } from './message-text.js';
