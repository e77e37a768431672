import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ValidationError } from '../../shared/errors';
import { findOwnedModelConfig } from '../../model-configs/use-cases/find-owned-model-config';
import { bool, num, str, uuidField, validate } from '../../shared/validation';
import { DEFAULT_SAMPLE_RATE, DEFAULT_SAMPLES_PER_HOUR, MAX_SAMPLES_PER_HOUR } from '../domain/sampling';
import { DEFAULT_MINIMUM_EFFECT, GOALS, GUARDRAILS, type Goal, type Guardrail } from '../domain/experiment';
import type { ExperimentSettings } from '../ports/experiment-repository.port';
import { analyzeExperiment } from './analyze-experiment';
import { toExperimentView, type ExperimentView } from './experiment-view';
import type { ExperimentReadDeps } from './get-experiment.use-case';

/** Largest minimum effect that still means something, per goal (a rating moves at most 4 stars, a rate 1). */
const MAX_EFFECT: Record<Goal, number> = { rating: 4, thumbs_up_rate: 1, cost_per_conversation: 1000, evaluator_score: 1 };

const schema = yup.object({
  goal: str().oneOf([...GOALS], `goal must be one of ${GOALS.join(', ')}`),
  evaluatorId: uuidField('evaluatorId').nullable(),
  minimumEffect: num().typeError('minimumEffect must be a number').moreThan(0, 'minimumEffect must be more than 0'),
  significance: num()
    .typeError('significance must be a number')
    .min(0.001, 'significance must be from 0.001 to 0.2')
    .max(0.2, 'significance must be from 0.001 to 0.2'),
  autoPromote: bool().typeError('autoPromote must be true or false'),
  guardrails: yup
    .array()
    .typeError(`guardrails must be a list of ${GUARDRAILS.join(', ')}`)
    .of(str().required().oneOf([...GUARDRAILS], `guardrails must be a list of ${GUARDRAILS.join(', ')}`))
    .max(GUARDRAILS.length),
  sampleRate: num().typeError('sampleRate must be a number').moreThan(0, 'sampleRate must be more than 0 and at most 1').max(1, 'sampleRate must be more than 0 and at most 1'),
  samplesPerHour: num()
    .typeError('samplesPerHour must be a number')
    .integer('samplesPerHour must be a whole number')
    .min(1, `samplesPerHour must be from 1 to ${MAX_SAMPLES_PER_HOUR}`)
    .max(MAX_SAMPLES_PER_HOUR, `samplesPerHour must be from 1 to ${MAX_SAMPLES_PER_HOUR}`),
  restart: bool().typeError('restart must be true or false'),
});

/**
 * Sets up or changes the A/B test of a config: its goal, minimum effect, significance, automatic
 * promotion, guardrails and (scored by an evaluator) the sampling of live answers. A new test, or a change of what it measures (goal, evaluator, minimum effect,
 * significance), or `restart`, starts it anew: only answers from now on count, and a decision is made
 * afresh. Switches (promotion, guardrails, sampling) change without restarting.
 */
export class SetExperimentUseCase {
  constructor(private readonly deps: ExperimentReadDeps & { clock: Clock }) {}

  async execute(configId: string, input: unknown, actor: Actor): Promise<ExperimentView> {
    const config = await findOwnedModelConfig(this.deps.configs, configId, actor, 'write', this.deps.teams ?? null);
    const body = await validate(schema, input);
    const current = await this.deps.experiments.findByConfig(config.id);
    const goal = (body.goal ?? current?.goal) as Goal | undefined;
    if (!goal) throw ValidationError.field('goal', `goal is required: one of ${GOALS.join(', ')}`);
    const sameGoal = current?.goal === goal;
    const settings: ExperimentSettings = {
      goal,
      evaluatorId: goal === 'evaluator_score' ? (body.evaluatorId ?? (sameGoal ? current!.evaluatorId : null)) : null,
      sampleRate: body.sampleRate ?? current?.sampleRate ?? DEFAULT_SAMPLE_RATE,
      samplesPerHour: body.samplesPerHour ?? current?.samplesPerHour ?? DEFAULT_SAMPLES_PER_HOUR,
      minimumEffect: body.minimumEffect ?? (sameGoal ? current!.minimumEffect : DEFAULT_MINIMUM_EFFECT[goal]),
      significance: body.significance ?? current?.significance ?? 0.05,
      autoPromote: body.autoPromote ?? current?.autoPromote ?? false,
      guardrails: body.guardrails ? ([...new Set(body.guardrails)] as Guardrail[]) : (current?.guardrails ?? []),
    };
    if (settings.minimumEffect > MAX_EFFECT[goal]) throw ValidationError.field('minimumEffect', `minimumEffect must be at most ${MAX_EFFECT[goal]} for ${goal}`);
    if (goal === 'evaluator_score') await this.checkEvaluator(config.applicationId, settings.evaluatorId);
    const changedMeasure =
      !current ||
      current.status === 'promoted' ||
      current.goal !== settings.goal ||
      current.evaluatorId !== settings.evaluatorId ||
      current.minimumEffect !== settings.minimumEffect ||
      current.significance !== settings.significance;
    const experiment = await this.deps.experiments.save(config.id, config.applicationId, settings, changedMeasure || body.restart === true, this.deps.clock.now());
    const versions = await this.deps.versions.listByConfig(config.id);
    return toExperimentView(experiment, await analyzeExperiment(this.deps, experiment, config, versions));
  }

  private async checkEvaluator(applicationId: string, evaluatorId: string | null): Promise<void> {
    if (!this.deps.scores) throw ValidationError.field('goal', 'Scoring live answers with an evaluator is not available on this platform yet');
    if (!evaluatorId) throw ValidationError.field('evaluatorId', 'evaluatorId is required when the goal is evaluator_score');
    if (!(await this.deps.scores.usable(applicationId, evaluatorId))) throw ValidationError.field('evaluatorId', 'No such evaluator in this application');
  }
}
