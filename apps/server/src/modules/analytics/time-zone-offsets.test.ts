import { describe, expect, it } from 'vitest';
import { hasWholeHourOffsets } from './time-zone-offsets';

describe('hasWholeHourOffsets', () => {
  it('is true for UTC and zones that move by whole hours for daylight saving', () => {
    for (const zone of ['UTC', 'Europe/Amsterdam', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney']) {
      expect(hasWholeHourOffsets(zone), zone).toBe(true);
    }
  });

  it('is false for zones a half or three quarters of an hour off, now or in some season or year', () => {
    // Lord Howe is +10:30 in winter and +11 in summer; Monrovia was −00:44:30 until 1972.
    for (const zone of [
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'America/St_Johns',
      'Australia/Adelaide',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'Africa/Monrovia',
    ]) {
      expect(hasWholeHourOffsets(zone), zone).toBe(false);
    }
  });
});
