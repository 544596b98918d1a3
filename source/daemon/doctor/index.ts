export { runDoctor, checkNodeVersion, checkTokenFile, checkStateDir, checkSqliteVec, type DoctorCheck } from './doctor-checks.js';
