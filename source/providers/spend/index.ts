export { SpendGate, type SpendGateOptions, type SpendNotice, type SpendTicket } from './gate.js';
export { SpendLedger, type Amount, type UsageRow } from './ledger.js';
export { spendKindOf, sessionScopeId, type SpendCharge, type SpendKind } from './charge.js';
export { limitsOf, formatAmount, type Limit, type Unit } from './limits.js';
export { dayOf, daysBefore } from './calendar.js';
export { nearestBudget } from './report.js';
