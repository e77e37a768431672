/** An application's Evaluate tab (docs/evaluations.md): the evaluations area's screen. */
export { default } from '../evaluations/Evaluations';
