-- Register a webhook with its cursor at the projected version, if the battle exists; the registration keeps
-- that version as its `start_version` (where a recovery may go back to without being told more).
-- KEYS[1] log, [2] webhooks, [3] webhook progress, [4] state; ARGV[1] id, [2] registration JSON
-- Returns the cursor, or -1 when there is no such battle.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
local cursor = tonumber(redis.call('HGET', KEYS[4], 'version') or '0')
local record = cjson.decode(ARGV[2])
record.start_version = cursor
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(record))
redis.call('HSET', KEYS[3], ARGV[1], cjson.encode({cursor = cursor, failures = 0, failed = false, epoch = 0}))
return cursor
