import {
  type AiTool,
  type CopilotVersion,
  type DownloadEntry,
  type Flow,
  type MultipartStart,
  type PostEditOptions,
  type ProfileEditOptions,
  type ProfileRecord,
  type ProjectItem,
  type ProjectList,
  projectSource,
  type SkyTemplate,
  type SmartEditOptions,
  type Stage,
  type StageStatus,
  type ThumbnailEntry,
  type UploadEntry,
} from './records.js';

/** A refused or failed call, with the service's message on one line. */
export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The message of any of the three error shapes of reference §7, on one line. */
export function errorMessage(status: number, body: unknown): string {
  const b = body as { error?: { message?: unknown }; detail?: unknown } | null;
  if (typeof b?.error?.message === 'string') return b.error.message;
  if (typeof b?.detail === 'string') return b.detail;
  if (Array.isArray(b?.detail)) {
    return b.detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? 'invalid'}`).join('; ');
  }
  return `HTTP ${status}`;
}

type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>;

const base = (flow: Flow) => (flow === 'i2i' ? '/v1/i2i/projects' : '/v1/projects');

/**
 * The public API of retouch, as the web app and the `retouch edit` command use it: every
 * call sends the key in `x-api-key` and unwraps `data`. Uploads and downloads go to the
 * presigned links it returns, not through here.
 */
export class RetouchClient {
  readonly baseUrl: string;
  private readonly fetch: FetchLike;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    fetchFn: FetchLike = (url, init) => globalThis.fetch(url, init),
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.fetch = fetchFn;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { 'x-api-key': this.apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.fetch(`${this.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch (err) {
      throw new ApiError(0, `cannot reach ${this.baseUrl}: ${causeOf(err)}`);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      throw new ApiError(res.status, `${method} ${path} answered ${res.status} with a body that is not JSON`);
    }
    if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, json));
    return json as T;
  }

  private async data<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.call<{ data: T }>(method, path, body)).data;
  }

  projects(flow: Flow, page: number, size: number, thumbnails = true): Promise<ProjectList> {
    return this.data('GET', `${base(flow)}?page=${page}&size=${size}&get_thumbnail=${thumbnails}`);
  }

  async createProject(flow: Flow, name?: string): Promise<string> {
    return (await this.data<{ project_uuid: string }>('POST', base(flow), name ? { name } : {})).project_uuid;
  }

  /** Whether no project of the flow has this name yet (a best-effort check: create still refuses a duplicate). */
  async nameIsFree(flow: Flow, name: string): Promise<boolean> {
    const query = encodeURIComponent(name);
    if (flow === 'i2i') return (await this.data<{ is_valid: boolean }>('GET', `/v1/i2i/projects/is_valid_name?name=${query}`)).is_valid;
    try {
      await this.data('GET', `/v1/projects/uuid?project_name=${query}`);
      return false;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return true;
      throw err;
    }
  }

  /** `wanted`, or the first "wanted (n)" that is free: project names are unique per account. */
  async freeProjectName(flow: Flow, wanted: string): Promise<string> {
    for (let n = 1; ; n++) {
      const name = n === 1 ? wanted : `${wanted} (${n})`;
      if (await this.nameIsFree(flow, name)) return name;
    }
  }

  project(flow: Flow, uuid: string, thumbnail = true): Promise<ProjectItem> {
    return this.data('GET', `${base(flow)}/${uuid}?get_thumbnail=${thumbnail}`);
  }

  async uploadLinks(flow: Flow, uuid: string, fileNames: string[]): Promise<UploadEntry[]> {
    const body = { files_list: fileNames.map((file_name) => ({ file_name })) };
    return (await this.data<{ files_list: UploadEntry[] }>('POST', `${base(flow)}/${uuid}/get_temporary_upload_links`, body)).files_list;
  }

  startMultipart(uuid: string, fileName: string, partCount: number): Promise<MultipartStart> {
    return this.data('POST', `/v1/i2i/projects/${uuid}/multipart_uploads`, { file_name: fileName, part_count: partCount });
  }

  async completeMultipart(uuid: string, uploadId: string, fileName: string): Promise<void> {
    await this.call('POST', `/v1/i2i/projects/${uuid}/multipart_uploads/${encodeURIComponent(uploadId)}/complete`, { file_name: fileName });
  }

  async abortMultipart(uuid: string, uploadId: string, key: string): Promise<void> {
    await this.call('DELETE', `/v1/i2i/projects/${uuid}/multipart_uploads/${encodeURIComponent(uploadId)}`, { key });
  }

  async skyTemplates(): Promise<SkyTemplate[]> {
    return (await this.data<{ templates: SkyTemplate[] }>('GET', '/v1/projects/sky_replacement/templates')).templates;
  }

  async profiles(): Promise<ProfileRecord[]> {
    return (await this.data<{ profiles: ProfileRecord[] }>('GET', '/v1/profiles')).profiles;
  }

  async smartEdit(uuid: string, options: SmartEditOptions): Promise<string> {
    return (await this.data<{ message: string }>('POST', `/v1/i2i/projects/${uuid}/edit`, options)).message;
  }

  async smartDownloads(uuid: string): Promise<DownloadEntry[]> {
    return (await this.data<{ files_list: DownloadEntry[] }>('GET', `/v1/i2i/projects/${uuid}/get_temporary_download_links`)).files_list;
  }

  async smartThumbnails(uuid: string): Promise<ThumbnailEntry[]> {
    return (await this.data<{ files_list: ThumbnailEntry[] }>('GET', `/v1/i2i/projects/${uuid}/get_temporary_thumbnail_links`)).files_list;
  }

  async profileEdit(uuid: string, options: ProfileEditOptions): Promise<string> {
    return (await this.data<{ message: string }>('POST', `/v1/projects/${uuid}/edit`, options)).message;
  }

  /** Export renders a profile edit to JPEGs; for a Smart Editing project it only marks it exported, which Copilot needs. */
  async exportProject(uuid: string): Promise<string> {
    return (await this.data<{ message: string }>('POST', `/v1/projects/${uuid}/export`)).message;
  }

  async postEdit(uuid: string, options: PostEditOptions): Promise<string> {
    return (await this.data<{ message: string }>('POST', `/v1/projects/${uuid}/post_editing`, options)).message;
  }

  stageStatus(uuid: string, stage: Stage): Promise<StageStatus> {
    return this.data('GET', `/v1/projects/${uuid}/${stage}/status`);
  }

  async stageDownloads(uuid: string, stage: Stage): Promise<DownloadEntry[]> {
    return (await this.data<{ files_list: DownloadEntry[] }>('GET', `/v1/projects/${uuid}/${stage}/get_temporary_download_links`)).files_list;
  }

  async aiTools(uuid: string, flow: Flow): Promise<AiTool[]> {
    return (await this.data<{ prompts: AiTool[] }>('GET', `/v1/projects/${uuid}/ai-tools?project_source=${projectSource(flow)}`)).prompts;
  }

  /** A new version from a plain-English instruction; the answer is at top level, not in `data`. */
  copilot(uuid: string, flow: Flow, fileName: string, instruction: string, parentVersionId: number | null): Promise<CopilotVersion> {
    const body = { instruction, parent_version_id: parentVersionId, project_source: projectSource(flow) };
    return this.call('POST', `/v1/projects/${uuid}/images/${encodeURIComponent(fileName)}/copilot`, body);
  }

  enhance(uuid: string, flow: Flow, fileName: string, toolId: string, parentVersionId: number | null): Promise<CopilotVersion> {
    const body = { tool_id: toolId, parent_version_id: parentVersionId, project_source: projectSource(flow) };
    return this.data('POST', `/v1/projects/${uuid}/images/${encodeURIComponent(fileName)}/enhance`, body);
  }

  async resetCopilot(uuid: string, flow: Flow, fileName: string): Promise<void> {
    await this.call('DELETE', `/v1/projects/${uuid}/images/${encodeURIComponent(fileName)}/copilot`, { project_source: projectSource(flow) });
  }

  async finalize(uuid: string, flow: Flow): Promise<DownloadEntry[]> {
    return (await this.data<{ files_list: DownloadEntry[] }>('POST', `/v1/projects/${uuid}/finalize`, { project_source: projectSource(flow) })).files_list;
  }
}

/** The innermost reason of a network failure (fetch wraps it in a TypeError). */
function causeOf(err: unknown): string {
  let e = err as { message?: string; code?: string; cause?: unknown };
  while (e.cause) e = e.cause as typeof e;
  return e.code ?? e.message ?? String(err);
}
