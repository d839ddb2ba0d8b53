// RUN: tle-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{device mesh has 2 axes but 1 levels}}
#mesh = #tle.device_mesh<shape = [2, 4], axes = ["x", "y"], levels = ["block_cluster"]>

// -----

// expected-error @+1 {{device mesh axis "x" has level "cta"; expected one of "node", "device", "block_cluster", "block"}}
#mesh = #tle.device_mesh<shape = [2], axes = ["x"], levels = ["cta"]>

// -----

// expected-error @+1 {{device mesh has 1 axes but 0 levels}}
#mesh = #tle.device_mesh<shape = [2], axes = ["x"], levels = []>
