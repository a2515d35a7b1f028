import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { profileRecord } from '../../domain/profiles.js';
import type { Services } from '../../services.js';
import { Data, ErrorBody } from '../schemas.js';

/** The caller's editing profiles: built-in ones and their own (reference §4.1; no 422 here). */
export const profileRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/profiles',
    {
      schema: {
        tags: ['Profiles'],
        summary: 'Editing profiles of the authenticated account',
        response: {
          200: Data(Type.Object({ profiles: Type.Array(Type.Object({ profile_key: Type.Integer(), profile_name: Type.String(), profile_type: Type.String(), image_type: Type.Enum(['RAW', 'JPG']) })) })),
          401: ErrorBody,
        },
      },
    },
    async (request) => ({ data: { profiles: (await services.profiles.list(request.account)).map(profileRecord) } }),
  );
};
