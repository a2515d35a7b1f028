import { UnprocessablePhoto } from '../domain/errors.js';
import { THUMBNAIL_JOB } from '../domain/deliveries.js';
import { I2I_JOBS } from '../domain/i2i-editing.js';
import type { Services } from '../services.js';
import { type JobHandler, PermanentJobError } from './runner.js';

/** A photo that cannot be developed fails at once; anything else (storage, database) is retried. */
async function permanentIfPhoto(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (err) {
    if (err instanceof UnprocessablePhoto) throw new PermanentJobError(err.message);
    throw err;
  }
}

/** Jobs that develop photos: as many at once as there are imaging threads. */
export function imagingHandlers(s: Services): Record<string, JobHandler> {
  return {
    [I2I_JOBS.plan]: {
      run: (p: { projectId: number }) => permanentIfPhoto(s.i2iEditing.plan(p.projectId)),
      giveUp: (p: { projectId: number }) => s.i2iEditing.planFailed(p.projectId),
    },
    [I2I_JOBS.render]: {
      run: (p: { outputId: number }) => permanentIfPhoto(s.i2iEditing.render(p.outputId)),
      giveUp: (p: { outputId: number }, _job, error) => s.i2iEditing.renderFailed(p.outputId, error),
    },
    [THUMBNAIL_JOB]: {
      run: (p: { outputId: number }) => s.deliveries.refreshThumbnail(p.outputId, (jpeg) => s.imaging.thumbnail(jpeg)),
    },
  };
}

/**
 * Callback deliveries wait on other people's servers, so they run apart from the imaging
 * jobs and never hold them up. Tries: now, then after 1, 3, 6, 12 and 18 times the base
 * delay (15 s by default: about 10 minutes in all).
 */
export function callbackHandlers(s: Services): Record<string, JobHandler> {
  const steps = [1, 3, 6, 12, 18];
  return {
    [I2I_JOBS.callback]: {
      run: (p: { projectId: number }, job) => s.i2iEditing.sendCallback(p.projectId, `${job.id}`),
      retryDelaySeconds: (attempt) => s.config.callbackRetryBaseSeconds * steps[Math.min(attempt, steps.length) - 1]!,
    },
  };
}
