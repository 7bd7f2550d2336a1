// placeholder until the module has content
