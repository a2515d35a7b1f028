import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertCallbackUrl } from '../../src/domain/callbacks.js';
import { isPrivateAddress } from '../../src/domain/private-addresses.js';

// Classification only: nothing here resolves a name or opens a connection.

test('IPv4 and IPv6 private, loopback, link-local, CGNAT and multicast addresses are private', () => {
  for (const address of ['127.0.0.1', '10.1.2.3', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', 'fec0::1']) {
    assert.equal(isPrivateAddress(address), true, address);
  }
});

test('IPv4-mapped addresses are judged by their IPv4 in every spelling', () => {
  for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:7F00:0001', '0:0:0:0:0:ffff:127.0.0.1', '0000:0000:0000:0000:0000:ffff:7f00:0001', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '::ffff:0:127.0.0.1']) {
    assert.equal(isPrivateAddress(address), true, address);
  }
  assert.equal(isPrivateAddress('::ffff:8.8.8.8'), false);
  assert.equal(isPrivateAddress('::ffff:808:808'), false);
});

test('IPv4-compatible, NAT64 and 6to4 addresses carrying a private IPv4 are private', () => {
  const privateOnes = [
    '::7f00:1',
    '::127.0.0.1',
    '::10.0.0.1',
    '::a9fe:a9fe',
    '64:ff9b::7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:0:0:0:0:c0a8:101',
    '2002:7f00:1::',
    '2002:7f00:0001::1',
    '2002:a9fe:a9fe::1',
    '2002:c0a8:0101:1::',
    '64:ff9b:1::1',
  ];
  for (const address of privateOnes) assert.equal(isPrivateAddress(address), true, address);
  for (const address of ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '::8.8.8.8']) assert.equal(isPrivateAddress(address), false, address);
});

test('public addresses are not private; what is not an address is', () => {
  for (const address of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) {
    assert.equal(isPrivateAddress(address), false, address);
  }
  for (const address of ['', 'localhost', '::ffff:999.0.0.1', '1:2:3:4:5:6:7:8:9']) assert.equal(isPrivateAddress(address), true, JSON.stringify(address));
});

test('callback URLs naming such an address literally are refused however they are written', async () => {
  for (const url of ['https://[::ffff:127.0.0.1]/hook', 'https://[::7f00:1]/hook', 'https://[64:ff9b::a9fe:a9fe]/latest/meta-data', 'https://[2002:a9fe:a9fe::]/', 'https://0x7f.1/', 'https://2130706433/']) {
    await assert.rejects(assertCallbackUrl(url, false), /private, loopback or link-local/, url);
  }
  await assert.doesNotReject(assertCallbackUrl('https://[2001:4860:4860::8888]/hook', false));
});
