import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from 'typebox';
import { editOptionsRecords } from '../../src/domain/records/edit-options.js';
import { editRequestFromWire, editRequestRecord, enabledTools } from '../../src/domain/records/edit-request.js';
import { editRequest } from '../../src/imaging/edit-request.js';
import { jobPayloads } from '../../src/domain/records/job-payloads.js';
import { developSettingsRecord, outputSources } from '../../src/domain/records/outputs.js';
import { fullStyle, styleRecord } from '../../src/domain/records/profiles.js';
import { CorruptRecord, objectRecord } from '../../src/domain/records/stored-record.js';
import { defaultSettings } from '../../src/imaging/settings.js';

const corrupt = (pattern: RegExp) => (err: unknown) => err instanceof CorruptRecord && pattern.test(err.message);

describe('stored records', () => {
  test('an object record is written with its version and read back as it was', () => {
    const request = editRequest({ hdrMerge: true, skyReplacement: true, skyTemplateId: 3 });
    const text = editRequestRecord.encode(request);
    assert.deepEqual(JSON.parse(text), { version: 2, ...request });
    assert.deepEqual(editRequestRecord.decode(text, 'project 1'), request);
  });

  test('rows written before records had versions are read as version 1', () => {
    // Exactly what the service stored before: no version field, bare lists.
    const i2i = '{"hdr_merge":false,"perspective_correction":true,"sky_replacement":true,"sky_replacement_template_id":2}';
    assert.deepEqual(editRequestRecord.decode(i2i, 'project 1'), editRequest({ perspectiveCorrection: true, skyReplacement: true, skyTemplateId: 2 }));
    assert.deepEqual(editOptionsRecords.aiTools.decode('["perspective_correction","sky_replacement"]', 'project 1'), ['perspective_correction', 'sky_replacement']);
    assert.deepEqual(outputSources.decode('["B_1.jpg","B_2.jpg"]', 'output 4'), ['B_1.jpg', 'B_2.jpg']);
    assert.deepEqual(jobPayloads.callback.decode('{"projectId":7,"finishedAt":"2024-05-01T10:00:00.000Z"}', 'job 9'), { projectId: 7, finishedAt: '2024-05-01T10:00:00.000Z' });
    const post = '{"resizeLongEdge":2048,"format":"WEBP","quality":80,"watermark":{"text":"© Studio","position":"center","opacity":0.5},"stripMetadata":true,"colorSpace":"sRGB"}';
    assert.equal(editOptionsRecords.post.decode(post, 'project 2').watermark?.position, 'center');
  });

  test('a record that is not what its schema says is refused, naming the row and the field', () => {
    assert.throws(
      () => editRequestRecord.decode('{"hdr_merge":"yes","perspective_correction":false,"sky_replacement":false,"sky_replacement_template_id":null}', 'project 5'),
      corrupt(/Cannot read the edit request of project 5: \/hdrMerge must be boolean/),
    );
    assert.throws(() => editRequestRecord.decode('{"version":2,"hdrMerge":true}', 'project 5'), corrupt(/project 5: .*perspectiveCorrection/));
    assert.throws(() => jobPayloads.output.decode('{"outputId":3,"projectId":4}', 'job 1'), corrupt(/job 1: \/ must not have additional properties \(projectId\)/));
    assert.throws(() => outputSources.decode('{"sources":[]}', 'output 2'), corrupt(/Cannot read the sources of output 2: \/ must be array/));
    assert.throws(() => outputSources.decode('B_1.jpg', 'output 2'), corrupt(/Cannot read the sources of output 2: not JSON/));
    assert.throws(() => editRequestRecord.decode('[]', 'project 6'), corrupt(/edit request of project 6: not a JSON object/));
  });

  test('a profile edit stored with the API names (version 1) reads as the EditRequest the route builds today', () => {
    const wire = {
      photography_type: 'REAL_ESTATE',
      crop: false,
      straighten: true,
      hdr_merge: true,
      portrait_crop: false,
      headshot_crop: false,
      smooth_skin: false,
      subject_mask: false,
      perspective_correction: false,
      sky_replacement: true,
      sky_replacement_template_id: 4,
      window_pull: true,
      crop_aspect_ratio: '4X5',
      hdr_output_compression: 'LOSSLESS',
    } as const;
    const request = editRequestRecord.decode(JSON.stringify({ version: 1, ...wire }), 'project 8');
    assert.deepEqual(request, editRequestFromWire(wire));
    assert.deepEqual(request, editRequest({ photographyType: 'REAL_ESTATE', straighten: true, hdrMerge: true, skyReplacement: true, skyTemplateId: 4, windowPull: true, cropAspectRatio: '4X5', hdrOutputCompression: 'LOSSLESS' }));
    assert.deepEqual(enabledTools(request), ['straighten', 'hdr_merge', 'sky_replacement', 'window_pull']);
  });

  test('an API request builds its EditRequest once: options left out or null take their defaults', () => {
    assert.deepEqual(editRequestFromWire({}), editRequest());
    assert.deepEqual(editRequestFromWire({ hdr_merge: true, hdr_output_compression: null, photography_type: null }), { ...editRequest(), hdrMerge: true });
    assert.equal(editRequest().hdrOutputCompression, 'LOSSY');
    assert.throws(() => editRequest({ skyTemplateId: 1.5 }), /skyTemplateId/);
    // Whether a template exists is the submission's to say (a 4xx naming it), not the request's shape.
    assert.equal(editRequestFromWire({ sky_replacement: true, sky_replacement_template_id: -5 }).skyTemplateId, -5);
  });

  test('a version this retouch does not know is refused rather than guessed', () => {
    assert.throws(() => jobPayloads.project.decode('{"version":2,"projectId":1}', 'job 3'), corrupt(/job 3: version 2, and this retouch reads versions 1 to 1/));
    assert.throws(() => jobPayloads.project.decode('{"version":0,"projectId":1}', 'job 3'), corrupt(/version 0/));
  });

  test('an older version is brought up to date step by step, then checked', () => {
    const record = objectRecord({
      name: 'greeting',
      version: 3,
      schema: Type.Object({ text: Type.String(), loud: Type.Boolean() }, { additionalProperties: false }),
      upgrades: {
        1: ({ message }) => ({ text: message }),
        2: (old) => ({ ...old, loud: false }),
      },
    });
    assert.deepEqual(record.decode('{"message":"hi"}', 'row 1'), { text: 'hi', loud: false });
    assert.deepEqual(record.decode('{"version":2,"text":"hey"}', 'row 2'), { text: 'hey', loud: false });
    assert.deepEqual(record.decode(record.encode({ text: 'yo', loud: true }), 'row 3'), { text: 'yo', loud: true });
    assert.throws(() => record.decode('{"version":2,"message":"hi"}', 'row 4'), corrupt(/Cannot read the greeting of row 4: /));
  });

  test('develop settings keep the engine’s own versions: a partial version-0 record is completed, a bad one refused', () => {
    const settings = developSettingsRecord.decode('{"exposure":0.5}', 'output 1');
    assert.deepEqual(settings, { ...defaultSettings(), exposure: 0.5 });
    assert.deepEqual(developSettingsRecord.decode(developSettingsRecord.encode(settings), 'output 1'), settings);
    assert.throws(() => developSettingsRecord.decode('{"version":1,"exposure":9}', 'Copilot version 4'), corrupt(/Cannot read the develop settings of Copilot version 4: /));
    assert.throws(() => developSettingsRecord.decode('{"version":7}', 'output 2'), corrupt(/newer than this engine supports/));
  });

  test('a stored style may list only the biases it sets; the others are none', () => {
    const stored = styleRecord.decode('{"name":"Mine","exposure":0.3}', 'profile 8');
    const style = fullStyle(stored);
    assert.equal(style.exposure, 0.3);
    assert.equal(style.contrast, 0);
    assert.throws(() => styleRecord.decode('{"name":"Mine","exposure":"bright"}', 'profile 8'), corrupt(/profile style of profile 8: \/exposure must be number/));
  });
});
