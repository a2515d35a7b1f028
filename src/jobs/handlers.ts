import { DevelopError, jobKinds } from '../domain/batch.js';
import { THUMBNAIL_JOB } from '../domain/deliveries.js';
import { UnprocessablePhoto } from '../domain/errors.js';
import type { Services } from '../services.js';
import { type JobHandler, PermanentJobError } from './runner.js';

/** A photo that cannot be developed (or is too large) fails at once; anything else (storage, database) is retried. */
async function permanentIfPhoto(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (err) {
    if (err instanceof UnprocessablePhoto || err instanceof DevelopError) throw new PermanentJobError(err.message);
    throw err;
  }
}

/** Jobs that develop photos, for every stage: as many at once as there are imaging threads. */
export function imagingHandlers(s: Services): Record<string, JobHandler> {
  const handlers: Record<string, JobHandler> = {
    [THUMBNAIL_JOB]: {
      run: (p: { outputId: number }) => permanentIfPhoto(s.deliveries.refreshThumbnail(p.outputId, (output) => s.imaging.thumbnail(output))),
    },
  };
  for (const stage of s.batches.stageNames()) {
    const kinds = jobKinds(stage);
    handlers[kinds.plan] = {
      run: (p: { projectId: number }) => permanentIfPhoto(s.batches.plan(stage, p.projectId)),
      giveUp: (p: { projectId: number }) => s.batches.planFailed(stage, p.projectId),
    };
    handlers[kinds.render] = {
      run: (p: { outputId: number }) => permanentIfPhoto(s.batches.render(stage, p.outputId)),
      giveUp: (p: { outputId: number }, _job, error) => s.batches.renderFailed(stage, p.outputId, error),
      retryDelaySeconds: (attempt) => 4 ** (attempt - 1),
    };
  }
  return handlers;
}

/**
 * Callback deliveries wait on other people's servers, so they run apart from the imaging
 * jobs and never hold them up. Tries: now, then after 1, 3, 6, 12 and 18 times the base
 * delay (15 s by default: about 10 minutes in all).
 */
export function callbackHandlers(s: Services): Record<string, JobHandler> {
  const steps = [1, 3, 6, 12, 18];
  const handlers: Record<string, JobHandler> = {};
  for (const stage of s.batches.stageNames()) {
    handlers[jobKinds(stage).callback] = {
      run: (p: { projectId: number; finishedAt: string }, job) => s.batches.sendCallback(stage, p.projectId, p.finishedAt, `${job.id}`),
      retryDelaySeconds: (attempt) => s.config.callbackRetryBaseSeconds * steps[Math.min(attempt, steps.length) - 1]!,
    };
  }
  return handlers;
}
