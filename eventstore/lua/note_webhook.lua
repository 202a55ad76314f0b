-- Log one line of a webhook's deliveries (a test event, a redelivery) while it is registered; its progress
-- is left as it is.
-- KEYS[1] webhooks, [2] attempts; ARGV[1] id, [2] line JSON, [3] lines kept
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[3]) - 1)
return 1
