export { SpendGate, type SpendGateOptions, type SpendNotice, type SpendTicket } from './gate.js';
export { SpendLedger, type Amount, type UsageRow } from './ledger.js';
export { spendKindOf, sessionScopeId, type SpendCharge, type SpendKind } from './charge.js';
export { limitsOf, scopesOf, formatAmount, type Limit, type Unit } from './limits.js';
export { dayOf, daysBefore } from './calendar.js';
export { spendStatus, EMPTY_LEDGER } from './report.js';
export { dailySpend, dailyChart, sparkline, type DailySpend } from './chart.js';
