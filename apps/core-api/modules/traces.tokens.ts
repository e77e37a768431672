/** The traces area's identifiers: one set for both apps, so the core API's are the shared ones. */
export { TRACE_TOKENS } from '../../shared/modules/traces.tokens';
