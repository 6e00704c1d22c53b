-- GET the URL's path; optional first argument: a bearer token for the Authorization header.
local request_text
function init(args)
  local headers = {}
  if args[1] ~= nil and args[1] ~= "" then headers["Authorization"] = "Bearer " .. args[1] end
  request_text = wrk.format("GET", nil, headers, nil)
end
function request() return request_text end
