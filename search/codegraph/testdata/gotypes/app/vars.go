package app

var fallback Cache
