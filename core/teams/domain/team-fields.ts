import * as yup from 'yup';
import { PROVIDER_IDS } from '../../ai/domain/provider-id';
import { bool, str } from '../../shared/validation';
import { TEAM_SLUG_PATTERN } from './team';

export const teamNameField = () => str().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters');
export const teamDescriptionField = () => str().max(2000, 'description must be at most 2000 characters');
export const teamSlugField = () =>
  str()
    .transform((value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value))
    .matches(TEAM_SLUG_PATTERN, 'slug must be 3-60 lowercase letters, digits or hyphens, starting and ending with a letter or digit');
export const teamSettingsField = () =>
  yup
    .object({
      defaultProvider: str()
        .nullable()
        .test('provider', `settings.defaultProvider must be one of ${PROVIDER_IDS.join(', ')} or null`, (v) => v === undefined || v === null || (PROVIDER_IDS as readonly string[]).includes(v)),
      sharedProviderKeys: bool(),
      membersMayInvite: bool(),
    })
    .default(undefined);
