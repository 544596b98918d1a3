export { detectProviders, setupChoices, presetCandidate, localPortsFrom, DEFAULT_LOCAL_PORTS, type DetectOptions } from './detect.js';
export { fetchModelIds, type ModelIdList } from './model-list.js';
export { runTestRequest } from './test-request.js';
export { applySetupSync, type SetupPlan, type SetupWritten } from './apply.js';
export { checkSetupStatus } from './status.js';
export { providerPresets, findPreset, type ProviderPreset } from './presets.js';
export { candidateKey } from './keys.js';
