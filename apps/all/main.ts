import '../shared/runtime-check';
import { runProcess } from '../shared/serve';
import { startAll } from './all';

/** `npm start`: the three services in one process on the embedded defaults (see `startAll`). */
void runProcess((config, infra) => startAll(config, infra));
