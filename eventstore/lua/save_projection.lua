-- Write outcomes, state and snapshots in one step, guarded by version: never backwards, never twice.
-- KEYS[1] outcomes stream, KEYS[2] state hash, KEYS[3] snapshots hash, KEYS[4] snapshot versions zset, KEYS[5] log
-- ARGV[1] state version, ARGV[2] state JSON, ARGV[3] outcome count n,
-- then n (version, outcome JSON) pairs, then (version, snapshot JSON) pairs to the end
-- Returns 1 when written, 0 when guarded out, -1 when the battle does not exist.
if redis.call('EXISTS', KEYS[5]) == 0 then
  return -1
end
local stored = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local version = tonumber(ARGV[1])
if version <= stored then
  return 0
end
local n = tonumber(ARGV[3])
if n > 0 then
  if tonumber(ARGV[4]) ~= stored + 1 then
    return 0
  end
  -- Scripts are not rolled back on error, so refuse up front anything XADD would reject halfway.
  local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
  if #last > 0 and tonumber(string.sub(last[1][1], 3)) > stored then
    return 0
  end
end
for i = 4, 3 + 2 * n, 2 do
  redis.call('XADD', KEYS[1], '0-' .. ARGV[i], 'outcome', ARGV[i + 1])
end
redis.call('HSET', KEYS[2], 'version', ARGV[1], 'state', ARGV[2])
for i = 4 + 2 * n, #ARGV, 2 do
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[4], ARGV[i], ARGV[i])
end
return 1
