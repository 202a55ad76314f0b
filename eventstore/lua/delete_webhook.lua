-- Drop a webhook and everything kept for it.
-- KEYS[1] webhooks, [2] progress, [3] claims, [4] attempts, [5] lock; ARGV[1] id.
-- Returns {1 if it existed, how many webhooks the battle has left}.
local existed = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[4], KEYS[5])
return {existed, redis.call('HLEN', KEYS[1])}
