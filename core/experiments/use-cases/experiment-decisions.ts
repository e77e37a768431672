import { withoutSecrets } from '../../audit/domain/audit-record';
import type { AuditLog } from '../../audit/ports/audit-log.port';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { ConfigVersionRepository } from '../../model-configs/ports/config-version-repository.port';
import type { ModelConfigRepository } from '../../model-configs/ports/model-config-repository.port';
import type { Clock } from '../../shared/clock.port';
import type { UnitOfWork } from '../../shared/unit-of-work.port';
import type { Experiment, Guardrail } from '../domain/experiment';
import type { ExperimentRepository } from '../ports/experiment-repository.port';
import { winningSetup } from './experiment-view';

export interface DecisionDeps {
  experiments: ExperimentRepository;
  configs: ModelConfigRepository;
  versions: ConfigVersionRepository;
  audit: AuditLog;
  events: EventPublisher;
  unitOfWork: UnitOfWork;
  clock: Clock;
}

export type DecisionKind = 'winner' | 'no_difference' | 'promoted' | 'rolled_back';

/** Who the config belongs to: whose webhooks hear of a decision, whose team reads its audit record. */
export interface ConfigOwner {
  ownerId: string;
  teamId: string | null;
}

/**
 * A decision's domain event (`experiment.decided`, de-duplicated per test run, kind and arm) and, when the
 * platform made it (no actor), its audit record; a person's promotion is recorded by the audit middleware.
 */
async function announce(deps: DecisionDeps, experiment: Experiment, owner: ConfigOwner, kind: DecisionKind, arm: string | null, extra: { guardrail?: Guardrail; automatic: boolean }) {
  const now = deps.clock.now();
  if (extra.automatic) {
    await deps.audit.append(
      {
        // The platform acts on the owner's behalf (by the test's settings): the record is theirs to read.
        actorId: owner.ownerId,
        actorRole: 'system',
        action: `model_config.experiment_${kind}`,
        resourceType: 'model_config',
        resourceId: experiment.configId,
        teamId: owner.teamId,
        applicationId: experiment.applicationId,
        outcome: 'success',
        details: withoutSecrets({ experimentId: experiment.id, goal: experiment.goal, arm, guardrail: extra.guardrail ?? null, automatic: true }),
      },
      now,
    );
  }
  await deps.events.publish({
    type: 'experiment.decided',
    ownerId: owner.ownerId,
    applicationId: experiment.applicationId,
    data: {
      applicationId: experiment.applicationId,
      configId: experiment.configId,
      experimentId: experiment.id,
      decision: kind,
      arm,
      goal: experiment.goal,
      ...(extra.guardrail ? { guardrail: extra.guardrail } : {}),
      automatic: extra.automatic,
    },
    dedupeKey: `experiment:${experiment.id}:${experiment.startedAt.getTime()}:${kind}:${arm ?? ''}`,
  });
}

/** Records a decision of a running test with its announcement, once. */
export function recordDecision(deps: DecisionDeps, experiment: Experiment, owner: ConfigOwner, decision: { status: 'winner' | 'no_difference'; winnerArm: string | null }): Promise<boolean> {
  return deps.unitOfWork.run(async () => {
    if (!(await deps.experiments.recordDecision(experiment.id, decision, deps.clock.now()))) return false;
    await announce(deps, experiment, owner, decision.status, decision.winnerArm, { automatic: true });
    return true;
  });
}

/** Switches off a challenger clearly worse on a guardrail, with its announcement, once. */
export function rollBack(deps: DecisionDeps, experiment: Experiment, owner: ConfigOwner, versionId: string, guardrail: Guardrail): Promise<boolean> {
  return deps.unitOfWork.run(async () => {
    if (!(await deps.experiments.rollBack(experiment.id, { versionId, guardrail, at: deps.clock.now().toISOString() }))) return false;
    await announce(deps, experiment, owner, 'rolled_back', versionId, { guardrail, automatic: true });
    return true;
  });
}

/** Promotes a decided winner: the config answers with the winner's setup and the test ends, once. */
export async function promoteWinner(deps: DecisionDeps, experiment: Experiment, owner: ConfigOwner, automatic: boolean): Promise<boolean> {
  const arm = experiment.winnerArm!;
  const config = (await deps.configs.findWithOwner(experiment.configId))!.config;
  const versions = await deps.versions.listByConfig(experiment.configId);
  return deps.unitOfWork.run(async () => {
    if (!(await deps.experiments.promote(experiment.id, { winner: winningSetup(arm, config, versions) }, deps.clock.now()))) return false;
    await announce(deps, experiment, owner, 'promoted', arm, { automatic });
    return true;
  });
}
