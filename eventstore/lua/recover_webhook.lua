-- Resume a webhook: no failures (its retry window starts afresh), its cursor where the caller says or where
-- it is, a new epoch (a delivery job still holding the old one saves nothing more), no claim (a job can be
-- enqueued at once), and one line logged naming the first version to be sent.
-- KEYS[1] webhooks, [2] progress, [3] claims, [4] attempts; ARGV[1] id, [2] cursor ('' = where it is),
-- [3] line JSON, [4] lines kept
-- Returns the new progress JSON, or nil when there is no such webhook.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return false
end
local stored = redis.call('HGET', KEYS[2], ARGV[1])
local progress = stored and cjson.decode(stored) or {cursor = 0}
local cursor = tonumber(progress.cursor) or 0
if ARGV[2] ~= '' then
  cursor = tonumber(ARGV[2])
end
local fresh = cjson.encode({
  cursor = cursor, failures = 0, failed = false, epoch = (tonumber(progress.epoch) or 0) + 1
})
redis.call('HSET', KEYS[2], ARGV[1], fresh)
redis.call('HDEL', KEYS[3], ARGV[1])
local line = cjson.decode(ARGV[3])
line.version = cursor + 1
redis.call('LPUSH', KEYS[4], cjson.encode(line))
redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[4]) - 1)
return fresh
