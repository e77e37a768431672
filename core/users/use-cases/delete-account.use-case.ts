import * as yup from 'yup';
import type { PasswordHasher } from '../../auth/ports/password-hasher.port';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import type { StoredFilesCleanup } from '../../uploads/use-cases/stored-files-cleanup';
import type { UserRepository } from '../ports/user-repository.port';

const schema = yup.object({ password: str().required('password is required to delete the account').max(256) });

export interface DeleteAccountDeps {
  users: UserRepository;
  hasher: PasswordHasher;
  /** The account's stored files (uploads, knowledge sources), removed after its rows; none kept when absent. */
  storedFiles?: Pick<StoredFilesCleanup, 'forAccount'>;
  /** How many teams the user is the Owner of (the teams area); an Owner must transfer or delete them first. */
  ownedTeams?: (userId: string) => Promise<number>;
}

/**
 * Deletes the caller's account and everything it owns, after checking the current password: the rows by
 * cascade, then the files they named. A file that cannot be removed is reported, never an error here.
 */
export class DeleteAccountUseCase {
  constructor(private readonly deps: DeleteAccountDeps) {}

  async execute(input: unknown, actor: Actor): Promise<void> {
    const { password } = await validate(schema, input);
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new NotFoundError('User');
    if (!(await this.deps.hasher.verify(user.passwordHash, password))) {
      throw ValidationError.field('password', 'password is incorrect');
    }
    // The team's applications are the Owner's: deleting the account would take them from every member.
    if (((await this.deps.ownedTeams?.(user.id)) ?? 0) > 0) {
      throw new ConflictError('You are the Owner of a team: transfer its ownership or delete it before deleting your account');
    }
    const removeFiles = await this.deps.storedFiles?.forAccount(user.id);
    await this.deps.users.delete(user.id);
    await removeFiles?.();
  }
}
