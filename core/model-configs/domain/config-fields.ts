import * as yup from 'yup';
import { bool, str } from '../../shared/validation';
import { isTrafficPercent } from './traffic';

/** Field paths the settings validator reports, as this area's bodies name them. */
export const SETTINGS_PATHS = { provider: 'provider', model: 'modelId', settings: 'settings' } as const;

export const configNameField = (path: string) =>
  str().min(1, `${path} must not be empty`).max(100, `${path} must be at most 100 characters`);
/** Passed through untouched: the shared settings validator checks provider, model and settings. */
export const rawField = () => yup.mixed();
export const isDefaultField = () => bool().typeError('isDefault must be a boolean');
export const labelField = () => str().min(1, 'label must not be empty').max(100, 'label must be at most 100 characters');
export const versionNameField = () => str().min(1, 'version must not be empty').max(50, 'version must be at most 50 characters');
export const trafficPercentField = () =>
  yup
    .mixed<number>()
    .test('trafficPercent', 'trafficPercent must be a number from 0 to 100 with at most two decimals', (v) => v === undefined || isTrafficPercent(v));
export const isActiveField = () => bool().typeError('isActive must be a boolean');
