<?php

namespace OPodSync;

class APIException extends \RuntimeException {}
