import { type Static, type TNumberOptions, type TSchema, type TStringOptions, Type } from 'typebox';

/** `{ "data": T }`, the success envelope of every route but Copilot's prompt. */
export function Data<T extends TSchema>(data: T) {
  return Type.Object({ data });
}

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/**
 * Text a client sends that the service stores, looks up, or names files with: any string
 * but one holding NUL, which PostgreSQL cannot store. Refused with a 422 the way pydantic
 * reports a string pattern.
 */
export function Text(options: TStringOptions = {}) {
  return Type.String({ ...options, pattern: '^[^\\u0000]*$' });
}

/** The range of the database's integer columns (PostgreSQL's integer is 32-bit). */
const INT32 = { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };

/** An id the service issued (profile key, template id, version id): a database integer. */
export function Id(options: TNumberOptions = {}) {
  return Type.Integer({ ...INT32, ...options });
}

export const ErrorBody = Type.Object({ error: Type.Object({ message: Type.String() }) }, { description: 'Standard error (reference §7)' });

export const ValidationErrorBody = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        type: Type.String(),
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        input: Type.Unknown(),
        ctx: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      }),
    ),
  },
  { description: 'Validation error, FastAPI / pydantic v2 shape' },
);

/** Error responses every authenticated route may give, for the OpenAPI document. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  422: ValidationErrorBody,
};

export const ProjectUuidParams = Type.Object({ project_uuid: Type.String() });

export const ProjectItem = Type.Object({
  project_id: Type.Integer(),
  project_uuid: Type.String(),
  name: Type.String(),
  status: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  number_of_images: Type.Integer(),
  profile: Nullable(Type.String({ description: 'the profile key of the edit, as a decimal string ("2"); null before the edit and for Smart Editing' })),
  ai_tools: Type.Array(Type.String()),
  customer_reference_id: Type.Integer(),
  thumbnail_src: Nullable(Type.String()),
  export_status: Nullable(Type.String()),
});
export type ProjectItem = Static<typeof ProjectItem>;

export const ProjectList = Data(
  Type.Object({
    projects: Type.Array(ProjectItem),
    pagination: Type.Object({ total: Type.Integer(), size: Type.Integer(), page: Type.Integer() }),
  }),
);

export const PageQuery = {
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  // Bounded so that the row offset (page × size) stays an exact integer on both engines.
  page: Type.Integer({ minimum: 0, maximum: INT32.maximum, default: 0 }),
};

export const CreateProjectBody = Nullable(Type.Object({ name: Type.Optional(Nullable(Text({ minLength: 1, maxLength: 255 }))) }));

export const ProjectCreated = Data(Type.Object({ project_uuid: Type.String() }));

const Md5 = Type.String({ pattern: '^[A-Za-z0-9+/]{22}==$', description: 'base64 MD5 of the file; verified on upload' });

export const UploadLinksBody = Type.Object({
  files_list: Type.Array(Type.Object({ file_name: Text({ minLength: 1 }), md5: Type.Optional(Nullable(Md5)) }), { minItems: 1 }),
  client_type: Type.Optional(Nullable(Type.String())),
});

export const UploadLink = Type.Object({ file_name: Type.String(), upload_link: Type.String() });

export const DownloadEntry = Type.Object({ file_name: Type.String(), download_link: Type.String() });

export const FileNameQuery = Type.Object({ file_name: Text({ minLength: 1 }) });

export const UploadLinks = Data(Type.Object({ files_list: Type.Array(UploadLink) }));
