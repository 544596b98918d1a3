export { runTui, type RunTuiOptions } from './run.js';
export { TuiStore, type StoreOptions } from './store/store.js';
export { TuiController } from './controller.js';
export { initialState, type TuiState, type ChatItem, type ChatLog, type PaneId } from './store/state.js';
export { App, type AppProps } from './components/App.js';
