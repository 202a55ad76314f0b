-- Create a battle: version 1, its secret seed and its first token, only if the log does not exist yet.
-- KEYS[1] log stream, KEYS[2] secret, KEYS[3] tokens hash; ARGV[1] server seed (hex),
-- ARGV[2] token digest ("" = none), ARGV[3] token record JSON, ARGV[4..] stream field/value pairs
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('XADD', KEYS[1], '0-1', unpack(ARGV, 4))
redis.call('SET', KEYS[2], ARGV[1])
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
end
return 1
