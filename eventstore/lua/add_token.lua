-- Keep a token record under its digest, only for a battle that exists.
-- KEYS[1] log stream, KEYS[2] tokens hash; ARGV[1] token digest, ARGV[2] token record JSON
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
