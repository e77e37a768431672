/**
 * A test scored by an evaluator (`evaluator_score`) scores a sample of its arms' live answers: by default a fifth of
 * them, and at most 60 an hour, so a judge's cost stays bounded however busy the application is.
 */
export const DEFAULT_SAMPLE_RATE = 0.2;
export const DEFAULT_SAMPLES_PER_HOUR = 60;
export const MAX_SAMPLES_PER_HOUR = 10_000;
