-- Take a fold lock, or renew it for the owner that holds it (a long fold renews between batches).
-- KEYS[1] lock; ARGV[1] owner token; ARGV[2] time to live (ms)
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
