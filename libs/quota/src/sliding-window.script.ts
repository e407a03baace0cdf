/**
 * Sliding-window log of one key's requests in a sorted set (score = arrival time in µs).
 * Runs atomically in Redis and reads Redis' own clock, so every replica sees the same window.
 * KEYS[1] the log; ARGV[1] limit; ARGV[2] window in µs; ARGV[3] a unique member for this request.
 * Returns {allowed (0/1), requests in the window, µs until the window has room for one more}.
 */
export const SLIDING_WINDOW_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
  count = count + 1
  allowed = 1
end
-- Room for one more request once all entries up to this one have left the window.
local entry = redis.call('ZRANGE', KEYS[1], math.max(count - limit, 0), math.max(count - limit, 0), 'WITHSCORES')
local wait = 0
if entry[2] then wait = tonumber(entry[2]) + window - now end
return {allowed, count, wait}
`;
