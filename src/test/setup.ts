// web test setup placeholder until the web app lands
