export { createBrowser, type BrowserHandle, type BrowserToolOptions } from './browser-tool.js';
export { findChromium, CHROMIUM_MISSING } from './launch.js';
export { readBrowserSecrets, writeBrowserSecret, browserSecretsFile } from './secrets.js';
