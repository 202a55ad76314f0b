-- Finish an import: the log is written up to its head; the secret seed and the first token land now, together.
-- KEYS[1] log stream, KEYS[2] secret, KEYS[3] tokens hash; ARGV[1] head version, ARGV[2] server seed (hex),
-- ARGV[3] token digest ("" = none), ARGV[4] token record JSON
-- Returns 1 when finished, 0 when the log is not the imported one (another writer touched it).
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 or last[1][1] ~= '0-' .. ARGV[1] or redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('SET', KEYS[2], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
end
return 1
