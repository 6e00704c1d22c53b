-- POST one JSON body (the first argument) to the URL's path, the same bytes every time;
-- optional second argument: a bearer token for the Authorization header.
local request_text
function init(args)
  local headers = { ["Content-Type"] = "application/json" }
  if args[2] ~= nil and args[2] ~= "" then headers["Authorization"] = "Bearer " .. args[2] end
  request_text = wrk.format("POST", nil, headers, args[1])
end
function request() return request_text end
