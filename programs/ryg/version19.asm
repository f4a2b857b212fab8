; RYG (first series) version 19: selects the version-specific code in the common sources
VERSION = 19
