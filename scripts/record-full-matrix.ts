import { RECORD, recordFullMatrix } from '../tests/support/full-matrix';

// Runs only after `vitest run` passed with the full browser matrix (see package.json's test:full).
recordFullMatrix(process.cwd());
console.log(`The full browser matrix passed: its files are recorded in ${RECORD}; commit it with the change.`);
