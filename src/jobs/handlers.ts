import { type BatchService, jobKinds } from '../domain/batch.js';
import { type DeliveriesService, THUMBNAIL_JOB } from '../domain/deliveries.js';
import { DevelopError } from '../domain/engine.js';
import { UnprocessablePhoto } from '../domain/errors.js';
import { jobPayloads } from '../domain/records/job-payloads.js';
import { CorruptRecord } from '../domain/records/stored-record.js';
import { type JobHandler, PermanentJobError } from './runner.js';

/** What the job handlers call: the domain's services that do the work. */
export interface HandlerDeps {
  batches: BatchService;
  deliveries: DeliveriesService;
  config: { callbackRetryBaseSeconds: number };
}

/** One handler, its payload's type checked against the record it decodes. */
const handler = <P>(h: JobHandler<P>): JobHandler => h;

/**
 * A photo that cannot be developed (or is too large) fails at once, as does a stored record
 * that cannot be read; anything else (storage, database) is retried.
 */
async function permanentIfHopeless(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (err) {
    if (err instanceof UnprocessablePhoto || err instanceof DevelopError || err instanceof CorruptRecord) throw new PermanentJobError(err.message);
    throw err;
  }
}

/** Jobs that develop photos, for every stage: as many at once as there are imaging threads. */
export function imagingHandlers(s: HandlerDeps): Record<string, JobHandler> {
  const handlers: Record<string, JobHandler> = {
    [THUMBNAIL_JOB]: handler({ payload: jobPayloads.output, run: (p) => permanentIfHopeless(s.deliveries.refreshThumbnail(p.outputId)) }),
  };
  for (const stage of s.batches.stageNames()) {
    const kinds = jobKinds(stage);
    handlers[kinds.plan] = handler({
      payload: jobPayloads.project,
      run: (p) => permanentIfHopeless(s.batches.plan(stage, p.projectId)),
      giveUp: (p) => s.batches.planFailed(stage, p.projectId),
    });
    handlers[kinds.render] = handler({
      payload: jobPayloads.output,
      run: (p) => permanentIfHopeless(s.batches.render(stage, p.outputId)),
      giveUp: (p, _job, error) => s.batches.renderFailed(stage, p.outputId, error),
      retryDelaySeconds: (attempt) => 4 ** (attempt - 1),
    });
  }
  return handlers;
}

/**
 * Callback deliveries wait on other people's servers, so they run apart from the imaging
 * jobs and never hold them up. Tries: now, then after 1, 3, 6, 12 and 18 times the base
 * delay (15 s by default: about 10 minutes in all).
 */
export function callbackHandlers(s: HandlerDeps): Record<string, JobHandler> {
  const steps = [1, 3, 6, 12, 18];
  const handlers: Record<string, JobHandler> = {};
  for (const stage of s.batches.stageNames()) {
    handlers[jobKinds(stage).callback] = handler({
      payload: jobPayloads.callback,
      run: (p, job) => s.batches.sendCallback(stage, p.projectId, p.finishedAt, `${job.id}`),
      retryDelaySeconds: (attempt) => s.config.callbackRetryBaseSeconds * steps[Math.min(attempt, steps.length) - 1]!,
    });
  }
  return handlers;
}
