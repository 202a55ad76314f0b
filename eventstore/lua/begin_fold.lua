-- Take a battle's fold lock (as lock.lua does) and read what its fold starts from, in one step.
-- KEYS[1] lock, KEYS[2] state hash, KEYS[3] log; ARGV[1] owner token, ARGV[2] time to live (ms),
-- ARGV[3] most log entries to read
-- Returns {0} when another folder holds the lock, else {1, state version, state JSON, entries after it}
-- (version and state nil before the first fold).
local holder = redis.call('GET', KEYS[1])
if holder ~= false and holder ~= ARGV[1] then
  return {0}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local stored = redis.call('HMGET', KEYS[2], 'version', 'state')
local after = tonumber(stored[1] or '0')
return {1, stored[1], stored[2], redis.call('XRANGE', KEYS[3], '0-' .. (after + 1), '+', 'COUNT', ARGV[3])}
