-- POST JSON bodies (every argument is one) to the URL's path in turn, e.g. logins of several users.
local requests = {}
local next_index = 1
function init(args)
  for i = 1, #args do
    requests[i] = wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, args[i])
  end
end
function request()
  local text = requests[next_index]
  next_index = next_index % #requests + 1
  return text
end
