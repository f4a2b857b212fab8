; RYG3 version 11: selects the version-specific code in the common sources
VERSION = 11
