import type { Container } from 'inversify';
import type { ChatPolicy } from '../../../core/conversations/ports/chat-policy.port';

/**
 * A chat policy contributed by another area (model configs, keys and quota, plugins, knowledge, analytics): the
 * area exports one, and the container passes them in run order to `conversationsModule([...])`.
 */
export type ChatPolicyFactory = (c: Container) => ChatPolicy;
