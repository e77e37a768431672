import { toPublicAnswer, type PublicAnswer } from '../domain/public-views';
import type { PublicCaller } from '../domain/public-caller';
import { openPublicTurn, type PublicChatDeps } from './open-public-turn';

/** `POST /api/v1/chat`: one message to an application, answered whole (SPEC 4.10). */
export class SendPublicMessageUseCase {
  constructor(private readonly deps: PublicChatDeps) {}

  async execute(input: unknown, caller: PublicCaller, signal?: AbortSignal): Promise<PublicAnswer> {
    const { turn, opening } = await openPublicTurn(this.deps, input, caller);
    return toPublicAnswer(await this.deps.runner.send(turn, { content: turn.content, settings: {} }, signal, opening));
  }
}
