import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDelta } from '../../src/domain/copilot/instructions/index.js';
import { aiTools, AI_TOOL_IDS, toolDelta } from '../../src/domain/copilot/tools.js';

describe('AI tools', () => {
  it('lists at least 12 tools in the API shape, each with a valid non-empty delta', () => {
    const tools = aiTools();
    assert.ok(tools.length >= 12, `${tools.length} tools`);
    assert.equal(new Set(tools.map((t) => t.enhancement_type)).size, tools.length);
    for (const t of tools) {
      assert.deepEqual(Object.keys(t).sort(), ['enabled_for_batch', 'enhancement_type', 'label']);
      assert.match(t.enhancement_type, /^[A-Z_]+$/);
      const d = toolDelta(t.enhancement_type);
      assert.deepEqual(checkDelta(d), d);
      assert.ok(d.ops.length + Object.keys(d.adjust).length > 0, `${t.enhancement_type} does something`);
    }
    assert.ok(tools.some((t) => t.enabled_for_batch) && tools.some((t) => !t.enabled_for_batch));
  });

  it('each tool moves its setting the way its name says', () => {
    assert.ok(toolDelta('BRIGHTEN').adjust.exposure! > 0);
    assert.ok(toolDelta('WARM_UP').adjust.temperature! > 0);
    assert.ok(toolDelta('COOL_DOWN').adjust.temperature! < 0);
    assert.ok(toolDelta('RECOVER_HIGHLIGHTS').adjust.highlights! < 0);
    assert.ok(toolDelta('LIFT_SHADOWS').adjust.shadows! > 0);
    assert.ok(toolDelta('MUTED_COLORS').adjust.saturation! < 0);
    assert.deepEqual(toolDelta('FIX_VERTICALS').ops, [{ auto: 'perspective' }]);
    assert.deepEqual(toolDelta('STRAIGHTEN').ops, [{ auto: 'straighten' }]);
  });

  it('an unknown tool id names the valid ones', () => {
    assert.throws(
      () => toolDelta('MAKE_IT_ART'),
      (err: Error) => AI_TOOL_IDS.every((id) => err.message.includes(id)),
    );
  });
});
