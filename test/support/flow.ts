import assert from 'node:assert/strict';
import type { ApiClient } from './http.js';
import { request } from './http.js';

/** Creates a Smart Editing project and uploads files to it through presigned links, as a client does. */
export async function i2iProjectWith(api: ApiClient, files: Record<string, Buffer>): Promise<string> {
  const created = await api.post('/v1/i2i/projects', {});
  assert.equal(created.status, 200, created.text);
  const uuid = created.json.data.project_uuid as string;
  await uploadTo(api, uuid, files);
  return uuid;
}

export async function uploadTo(api: ApiClient, uuid: string, files: Record<string, Buffer>): Promise<void> {
  if (Object.keys(files).length === 0) return;
  const links = await api.post(`/v1/i2i/projects/${uuid}/get_temporary_upload_links`, {
    files_list: Object.keys(files).map((file_name) => ({ file_name })),
  });
  assert.equal(links.status, 200, links.text);
  for (const { file_name, upload_link } of links.json.data.files_list as { file_name: string; upload_link: string }[]) {
    const put = await request('PUT', upload_link, { headers: { 'content-type': '' }, body: files[file_name]! });
    assert.equal(put.status, 200, put.text);
  }
}

/** Polls the project (every 100 ms) until it is Completed or Failed; returns the project item. */
export async function waitForEnd(api: ApiClient, path: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(path);
    assert.equal(res.status, 200, res.text);
    if (['Completed', 'Failed'].includes(res.json.data.status)) return res.json.data;
    if (Date.now() > deadline) throw new Error(`${path} still ${res.json.data.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Downloads every file of a files_list, by name. */
export async function downloadAll(list: { file_name: string; download_link: string }[]): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  for (const entry of list) {
    const res = await request('GET', entry.download_link);
    assert.equal(res.status, 200, `${entry.file_name}: ${res.text.slice(0, 200)}`);
    files[entry.file_name] = res.body;
  }
  return files;
}

/** A profile-based project with these files uploaded, as the official SDKs do it. */
export async function profileProjectWith(api: ApiClient, files: Record<string, Buffer>, name?: string): Promise<string> {
  const created = await api.post('/v1/projects', name ? { name } : undefined);
  assert.equal(created.status, 200, created.text);
  const uuid = created.json.data.project_uuid as string;
  const links = await api.post(`/v1/projects/${uuid}/get_temporary_upload_links`, { files_list: Object.keys(files).map((file_name) => ({ file_name })) });
  assert.equal(links.status, 200, links.text);
  for (const { file_name, upload_link } of links.json.data.files_list as { file_name: string; upload_link: string }[]) {
    assert.equal((await request('PUT', upload_link, { headers: { 'content-type': '' }, body: files[file_name]! })).status, 200);
  }
  return uuid;
}

/** Polls a profile-flow stage's status endpoint (every 100 ms) until it ends; returns its status. */
export async function waitForStage(api: ApiClient, uuid: string, stage: 'edit' | 'export' | 'post_editing', timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/projects/${uuid}/${stage}/status`);
    assert.equal(res.status, 200, res.text);
    if (['Completed', 'Failed'].includes(res.json.data.status)) return res.json.data;
    if (Date.now() > deadline) throw new Error(`${stage} of ${uuid} still ${res.json.data.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The profile-flow edit request as the official clients send it: with an EMPTY Content-Type header. */
export const editProfileProject = (api: ApiClient, uuid: string, body: Record<string, unknown>) => api.post(`/v1/projects/${uuid}/edit`, body, { 'content-type': '' });

/** The export request as the official clients send it: no body and no Content-Type at all. */
export const exportProject = (api: ApiClient, uuid: string) => request('POST', `${api.baseUrl}/v1/projects/${uuid}/export`, { headers: { 'x-api-key': api.apiKey! } });
