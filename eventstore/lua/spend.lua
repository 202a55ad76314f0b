-- Count one request against a rate budget and nothing else (see rate.lua, prepended):
-- KEYS the budget's counters, ARGV[1] how many, then (amount, window ms) for each.
local tightest, left, reset = spend(1, 1)
return {tightest, left, reset}
