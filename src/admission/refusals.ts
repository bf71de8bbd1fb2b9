import type { Refusal } from './fair-scheduler.js';

/**
 * Who counts refusals of admission (the metrics): a token here, provided by the observability
 * module, so that the database layer does not import it.
 */
export const ADMISSION_REFUSALS = Symbol('ADMISSION_REFUSALS');
export interface AdmissionRefusals {
  countAdmissionRefused(refusal: Refusal): void;
}
