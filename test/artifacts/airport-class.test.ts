// the airport classification rule (artifacts/airport-class.ts), one case per step
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_MOVEMENTS, classify, militaryName, type ClassInput } from '../../artifacts/airport-class.ts';

const base: ClassInput = { kind: 'small_airport', name: 'Wangen-Lachen Airfield', scheduled_service: false, movements: 0, military: 0, airline: 0 };

test('closed in the dataset is closed, whatever is heard there', () => {
  assert.equal(classify({ ...base, kind: 'closed', scheduled_service: true, movements: 500, airline: 500 }), 'closed');
});

test('mostly military-block traffic makes an airport military, even one listed with scheduled service', () => {
  assert.equal(classify({ ...base, scheduled_service: true, movements: 40, military: 21 }), 'military');
  assert.equal(classify({ ...base, scheduled_service: true, movements: 40, military: 20 }), 'commercial');
});

test('traffic below the minimum never classifies: a few military visits leave a general field general', () => {
  assert.equal(classify({ ...base, movements: MIN_MOVEMENTS - 1, military: MIN_MOVEMENTS - 1 }), 'general');
  assert.equal(classify({ ...base, movements: MIN_MOVEMENTS - 1, airline: MIN_MOVEMENTS - 1 }), 'general');
});

test('scheduled service is commercial, and beats a military name (joint civil/military fields)', () => {
  assert.equal(classify({ ...base, scheduled_service: true }), 'commercial');
  assert.equal(classify({ ...base, name: 'Midtjyllands Airport / Air Base Karup', scheduled_service: true }), 'commercial');
});

test('a military name without scheduled service is military', () => {
  for (const name of [
    'Ramstein Air Base',
    'RAF Lakenheath',
    'Travis AFB',
    'Fritzlar Army Airfield',
    'Den Helder Naval Air Station',
    'Nordholz Naval Airbase',
  ]) {
    assert.equal(classify({ ...base, name }), 'military', name);
  }
});

test('military acronyms match as words and in capitals only', () => {
  assert.equal(militaryName('Krafla Airstrip'), false);
  assert.equal(militaryName('Raf Field'), false);
  assert.equal(militaryName('Nashville International'), false);
  assert.equal(militaryName('NAS Whidbey Island'), true);
});

test('airline callsigns on at least half the movements make an unscheduled field commercial; otherwise general', () => {
  assert.equal(classify({ ...base, movements: 40, airline: 20 }), 'commercial');
  assert.equal(classify({ ...base, movements: 40, airline: 19 }), 'general');
});
