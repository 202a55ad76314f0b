-- Create a battle: version 1 and its secret seed, only if the log does not exist yet.
-- KEYS[1] log stream, KEYS[2] secret; ARGV[1] server seed (hex), ARGV[2..] stream field/value pairs
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('XADD', KEYS[1], '0-1', unpack(ARGV, 2))
redis.call('SET', KEYS[2], ARGV[1])
return 1
